import { describe, expect, it } from 'vitest';
import { checkAgentPath, checkTaskName, childPath, isImmediateChild, MAX_AGENT_PATH_LENGTH } from './agent-path.ts';

describe('agent paths', () => {
  it('accepts lowercase task names of at most 40 characters, never root', () => {
    expect(checkTaskName('review_api_2')).toBe('review_api_2');
    expect(checkTaskName('a'.repeat(40))).toBe('a'.repeat(40));
    expect(() => checkTaskName('a'.repeat(41))).toThrow('task_name must be at most 40 characters');
    for (const bad of ['Bad-Name', 'has space', '', 'root', 'dots.no', 'ümlaut']) {
      expect(() => checkTaskName(bad)).toThrow('task_name must use lowercase letters, digits, and underscores');
    }
  });

  it('joins children beneath /root and checks whole paths', () => {
    expect(childPath('/root', 'prices')).toBe('/root/prices');
    expect(childPath('/root/prices', 'check')).toBe('/root/prices/check');
    expect(() => checkAgentPath('/other/x')).toThrow('agent path must start with /root');
    expect(() => checkAgentPath('/root/')).toThrow('agent path must not end with /');
    expect(() => checkAgentPath('/root//x')).toThrow('agent path must not contain empty segments');
    const deep = `/root${'/abcdefghij'.repeat(93)}`;
    expect(deep.length).toBeGreaterThan(MAX_AGENT_PATH_LENGTH);
    expect(() => checkAgentPath(deep)).toThrow('agent path is too long');
  });

  it('recognises immediate children only', () => {
    expect(isImmediateChild('/root/a', '/root')).toBe(true);
    expect(isImmediateChild('/root/a/b', '/root')).toBe(false);
    expect(isImmediateChild('/root/a/b', '/root/a')).toBe(true);
    expect(isImmediateChild('/root/Bad', '/root')).toBe(false);
    expect(isImmediateChild(42, '/root')).toBe(false);
  });
});
