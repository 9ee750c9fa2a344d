import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateJsonSchema } from 'ghostlight';
import type { JsonSchema } from 'ghostlight';
import { workflowPlanJsonSchema } from 'ghostlight/workflows';
import { projectRoot } from '../support/realworld';
import { seedPlan } from '../support/workflow-fixtures';

describe('the published plan JSON Schema (docs/workflow-plan-v1.schema.json)', () => {
  const published = JSON.parse(readFileSync(join(projectRoot, 'docs/workflow-plan-v1.schema.json'), 'utf8')) as JsonSchema;

  it('is the schema workflowPlanJsonSchema() returns (regenerate the file when the plan format changes)', () => {
    expect(published).toEqual({ $schema: 'https://json-schema.org/draft/2020-12/schema', title: 'Ghostlight workflow plan (workflow-plan-v1)', ...workflowPlanJsonSchema() });
  });

  it('accepts the seed plan and rejects an unknown step kind', () => {
    expect(validateJsonSchema(published, seedPlan())).toEqual([]);
    const bad = { ...seedPlan(), steps: [{ id: 'a', uses: 'shell.exec', with: {} }] };
    expect(validateJsonSchema(published, bad).length).toBeGreaterThan(0);
  });
});
