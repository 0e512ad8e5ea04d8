import { Tool } from './tool.types';
import { ToolInputError } from './tool.errors';

interface PropertySchema {
  type: 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';
  items?: PropertySchema;
  minimum?: number;
}

/**
 * Validates a model's input against the tool's (flat) JSON schema: an object, required members present,
 * members of the declared type, nothing else. Errors name the member so the model can correct itself.
 */
export function parseToolInput<Input>(tool: Tool<Input>, raw: unknown): Input {
  const schema = tool.inputSchema as { properties: Record<string, PropertySchema>; required?: string[] };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ToolInputError(`${tool.name}: input must be an object`);
  }
  const input = raw as Record<string, unknown>;
  if (tool.foreignSchema) return input as Input;
  for (const name of schema.required ?? []) {
    if (input[name] === undefined || input[name] === null) {
      throw new ToolInputError(`${tool.name}: "${name}" is required`);
    }
  }
  for (const [name, value] of Object.entries(input)) {
    const property = schema.properties[name];
    if (!property) throw new ToolInputError(`${tool.name}: unknown member "${name}"`);
    if (value === undefined || value === null) continue;
    if (!matches(property, value))
      throw new ToolInputError(`${tool.name}: "${name}" must be ${describe(property)}`);
  }
  return input as Input;
}

function matches(schema: PropertySchema, value: unknown): boolean {
  switch (schema.type) {
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'number':
    case 'integer':
      return (
        typeof value === 'number' &&
        Number.isFinite(value) &&
        (schema.type === 'number' || Number.isInteger(value)) &&
        (schema.minimum === undefined || value >= schema.minimum)
      );
    case 'array':
      return Array.isArray(value) && (!schema.items || value.every((item) => matches(schema.items!, item)));
    case 'object':
      // The tool checks the members itself (e.g. each todo of `todowrite`).
      return typeof value === 'object' && value !== null && !Array.isArray(value);
  }
}

function describe(schema: PropertySchema): string {
  if (schema.type === 'array') return `an array of ${schema.items ? describe(schema.items) : 'values'}`;
  const article = schema.type === 'integer' || schema.type === 'object' ? 'an' : 'a';
  return schema.minimum === undefined
    ? `${article} ${schema.type}`
    : `${article} ${schema.type} of at least ${schema.minimum}`;
}
