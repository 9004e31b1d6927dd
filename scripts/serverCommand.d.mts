export const SERVER_NODE_ARGS: string[];
export const SERVER_SOURCE_ENTRY: string;
export const SERVER_BUNDLE: string;
export const SERVER_BUILD_INPUTS: string[];
export function serverBuildFresh(): boolean;
export function ensureServerBuild(): void;
export function serverEntry(): string;
export function serverExecArgv(extra?: string[]): string[];
export function serverArgs(extra?: string[]): string[];
