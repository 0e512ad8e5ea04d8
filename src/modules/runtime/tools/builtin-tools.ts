import type { ToolSpec } from '../providers/step.types';
import { bashTool } from './bash.tool';
import { editTool } from './edit.tool';
import { globTool } from './glob.tool';
import { grepTool } from './grep.tool';
import { listTool } from './list.tool';
import { questionTool } from './question.tool';
import { readTool } from './read.tool';
import { taskTool } from './task.tool';
import { todoReadTool, todoWriteTool } from './todo.tools';
import { AnyTool } from './tool.types';
import { webFetchTool } from './webfetch.tool';
import { writeTool } from './write.tool';

/** The tools every agent may be offered, subject to its permission rules. */
export const BUILTIN_TOOLS: AnyTool[] = [
  readTool,
  listTool,
  globTool,
  grepTool,
  writeTool,
  editTool,
  bashTool,
  todoWriteTool,
  todoReadTool,
  webFetchTool,
  taskTool,
  questionTool,
];

/** A tool as offered to the model (no `run`: the loop runs it). */
export function toolSpec(tool: AnyTool): ToolSpec {
  return { name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
}
