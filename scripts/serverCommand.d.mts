export const SERVER_NODE_ARGS: string[];
export function serverArgs(extra?: string[]): string[];
