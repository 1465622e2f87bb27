// WebAssembly's JavaScript API, typed for what the engine uses: TypeScript declares it only in
// lib.dom, which the engine's sources (lib ES2023 and Node's types) do not load.
export interface WasmMemory { readonly buffer: ArrayBuffer | SharedArrayBuffer }
export interface WasmApi {
  Memory: new (descriptor: { initial: number; maximum?: number; shared?: boolean }) => WasmMemory;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: Record<string, Record<string, unknown>>) => { exports: Record<string, unknown> };
  LinkError: new (message?: string) => Error;
}
export const webAssembly = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** A module's binary from base64 (atob: in Node and in browsers alike). */
export function wasmBytes(base64: string): Uint8Array {
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}
