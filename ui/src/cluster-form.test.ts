import { describe, expect, it } from 'vitest';
import { readCluster } from './cluster-form';

describe('readCluster', () => {
  it('takes the layout of one server by default', () => {
    expect(readCluster({ shards: null, replicas: 1, write: 1 })).toEqual({
      cluster: { shard_number: null, replication_factor: 1, write_consistency_factor: 1 },
      problems: [],
    });
  });

  it('keeps a three-node layout', () => {
    const { cluster, problems } = readCluster({ shards: 6, replicas: 2, write: 2 });
    expect(problems).toEqual([]);
    expect(cluster).toEqual({ shard_number: 6, replication_factor: 2, write_consistency_factor: 2 });
  });

  it('says what is wrong with each field', () => {
    expect(readCluster({ shards: Number.NaN, replicas: 1, write: 1 }).problems[0]).toMatch(/shards/);
    expect(readCluster({ shards: null, replicas: null, write: 1 }).problems[0]).toMatch(/replication factor/);
    expect(readCluster({ shards: null, replicas: 2, write: 3 }).problems[0]).toMatch(/between 1 and the replication factor \(2\)/);
  });
});
