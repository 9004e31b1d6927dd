export const SERVER_NODE_ARGS: string[];
export const SERVER_ENTRY: string;
export function serverExecArgv(extra?: string[]): string[];
export function serverArgs(extra?: string[]): string[];
