import { describe, expect, it } from 'vitest';
import { STRATEGY_NAMES } from './api';
import { unavailableReason } from './strategy-availability';

const llm = (llm_base_url: string | null, llm_model: string | null) => ({ llm_base_url, llm_model });

describe('unavailableReason', () => {
  it('blocks proxy-pointer without a model or a server, saying which is missing', () => {
    expect(unavailableReason('proxy-pointer', llm(null, null))).toMatch(/language model.*Settings/);
    expect(unavailableReason('proxy-pointer', llm('http://127.0.0.1:8080/v1', '  '))).toMatch(/choose one in Settings/);
    expect(unavailableReason('proxy-pointer', llm('', 'qwen'))).toMatch(/server address/);
  });

  it('lets proxy-pointer run once both are set, and never blocks the others', () => {
    expect(unavailableReason('proxy-pointer', llm('http://127.0.0.1:8080/v1', 'qwen'))).toBeNull();
    for (const name of STRATEGY_NAMES.filter((n) => n !== 'proxy-pointer')) {
      expect(unavailableReason(name, llm(null, null))).toBeNull();
    }
  });

  it('blocks nothing before the settings are known', () => {
    expect(unavailableReason('proxy-pointer', null)).toBeNull();
  });
});
