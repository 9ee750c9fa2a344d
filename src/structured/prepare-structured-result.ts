import type { LanguageModel } from 'ai';
import { modelIdentity } from '../model/model-capabilities.ts';
import type { ModelCapabilities } from '../model/model-capabilities.ts';
import type { Tool } from '../tool/tool.ts';
import { resolveStrategy } from './resolve-strategy.ts';
import { defineResultSchema } from './result-schema.ts';
import type { ResultDeclaration, ResultSchema } from './result-schema.ts';
import { StructuredResultController } from './structured-result-controller.ts';

const schemas = new WeakMap<object, Map<string, ResultSchema>>();

/** The checked result schema of a declaration (checked once per declaration and agent name). */
export function resultSchemaFor(declaration: ResultDeclaration, agentName: string): ResultSchema {
  let byName = schemas.get(declaration);
  if (!byName) schemas.set(declaration, (byName = new Map()));
  let schema = byName.get(agentName);
  if (!schema) byName.set(agentName, (schema = defineResultSchema(declaration, agentName)));
  return schema;
}

/**
 * Prepares a run's structured result: checks the schema, resolves the
 * strategy against the model's capabilities and rejects a result tool that
 * collides with a model-facing tool, all before any request.
 */
export function prepareStructuredResult(options: {
  declaration: ResultDeclaration;
  agentName: string;
  model: LanguageModel;
  capabilities: ModelCapabilities;
  tools: readonly Tool[];
}): StructuredResultController {
  const schema = resultSchemaFor(options.declaration, options.agentName);
  const strategy = resolveStrategy(schema.strategy, options.capabilities, modelIdentity(options.model), options.tools.length > 0);
  const controller = new StructuredResultController(schema, strategy);
  controller.assertNoCollision(options.tools);
  return controller;
}
