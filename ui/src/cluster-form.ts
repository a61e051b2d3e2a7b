// The Qdrant cluster fields of the settings form: typed counts to the shell's layout.

import type { ClusterSettings } from './api';

/** The cluster layout the form says, with its problems in words. */
export function readCluster(values: { shards: number | null; replicas: number | null; write: number | null }): {
  cluster: ClusterSettings;
  problems: string[];
} {
  const problems: string[] = [];
  if (Number.isNaN(values.shards)) problems.push('The number of shards must be a whole number of at least 1, or empty');
  if (values.replicas === null || Number.isNaN(values.replicas)) problems.push('The replication factor must be a whole number of at least 1');
  const replicasValue = values.replicas !== null && !Number.isNaN(values.replicas) ? values.replicas : 1;
  const write = values.write ?? 1;
  if (Number.isNaN(write) || write > replicasValue) {
    problems.push(`The write consistency factor must be between 1 and the replication factor (${replicasValue})`);
  }
  return {
    cluster: {
      shard_number: values.shards !== null && !Number.isNaN(values.shards) ? values.shards : null,
      replication_factor: replicasValue,
      write_consistency_factor: Number.isNaN(write) ? 1 : write,
    },
    problems,
  };
}
