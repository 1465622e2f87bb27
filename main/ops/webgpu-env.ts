// WebGPU in Node through the npm package `webgpu` (dawn.node): the one place that prepares the
// environment and installs navigator.gpu, shared by the backend registry, the tests and the
// benches. tfjs-backend-webgpu registers itself only if navigator.gpu exists when it is first
// imported, so installGpu() must run before that import (importWebgpuBackend does both in order).
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian's chromium package ships SwiftShader's Vulkan ICD (a software GPU) here. */
export const SWIFTSHADER_ICD = '/usr/lib/chromium/vk_swiftshader_icd.json';

export interface AdapterReport {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  /** A software adapter (SwiftShader, llvmpipe, or one the driver flags as fallback). */
  fallback: boolean;
}

/** XDG_RUNTIME_DIR gets a private temp dir when unset (Dawn's Vulkan loader complains otherwise). */
export function prepareWebgpuEnv(): void {
  if (!process.env.XDG_RUNTIME_DIR) process.env.XDG_RUNTIME_DIR = mkdtempSync(join(tmpdir(), 'lino-xdg-'));
}

type GpuLike = { requestAdapter(o?: object): Promise<AdapterLike | null> };
type AdapterLike = { info?: { vendor?: string; architecture?: string; device?: string; description?: string; isFallbackAdapter?: boolean }; isFallbackAdapter?: boolean };

let installed: { gpu: GpuLike; adapter: AdapterReport | null; software: boolean } | undefined;

/**
 * Installs dawn.node's WebGPU globals and navigator.gpu (Node 20 has no globalThis.navigator).
 * The system's Vulkan drivers are asked first. With `allowSoftware` (an explicit choice of
 * webgpu, or the tests) and no adapter or only a fallback one, VK_ICD_FILENAMES defaults to
 * Chromium's SwiftShader ICD when unset and present, in a second Dawn instance (the Vulkan loader
 * reads the variable per instance). Automatic selection never sets it, so a machine with a real
 * GPU and Chromium installed still finds its GPU.
 */
export async function installGpu(o: { allowSoftware?: boolean } = {}): Promise<{ adapter: AdapterReport | null }> {
  if (installed && (installed.adapter || !o.allowSoftware || installed.software)) return { adapter: installed.adapter };
  prepareWebgpuEnv();
  const { create, globals } = (await import('webgpu')) as unknown as { create(o: string[]): GpuLike; globals: object };
  Object.assign(globalThis, globals);
  let gpu = installed?.gpu ?? create([]);
  let adapter = installed ? installed.adapter : await firstAdapter(gpu);
  let software = false;
  if (o.allowSoftware && (!adapter || adapter.fallback) && !process.env.VK_ICD_FILENAMES && existsSync(SWIFTSHADER_ICD)) {
    process.env.VK_ICD_FILENAMES = SWIFTSHADER_ICD;
    const soft = create([]);
    const a = await firstAdapter(soft);
    if (a) [gpu, adapter, software] = [soft, a, true];
  }
  const g = globalThis as { navigator?: object };
  if (!g.navigator) Object.defineProperty(globalThis, 'navigator', { value: {}, configurable: true, writable: true });
  Object.defineProperty(g.navigator!, 'gpu', { value: gpu, configurable: true });
  installed = { gpu, adapter, software };
  return { adapter };
}

// tfjs-backend-webgpu asks with the same option.
const firstAdapter = async (gpu: GpuLike) => {
  const a = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  return a ? describeAdapter(a) : null;
};

const SOFTWARE = /swiftshader|llvmpipe|lavapipe|softpipe|microsoft basic render/i;

export function describeAdapter(a: AdapterLike): AdapterReport {
  const i = a.info ?? {};
  const r = { vendor: i.vendor ?? '', architecture: i.architecture ?? '', device: i.device ?? '', description: i.description ?? '' };
  const fallback = i.isFallbackAdapter === true || a.isFallbackAdapter === true || SOFTWARE.test(`${r.vendor} ${r.architecture} ${r.device} ${r.description}`);
  return { ...r, fallback };
}

export function formatAdapter(a: AdapterReport): string {
  const name = [a.vendor, a.architecture, a.device].filter(Boolean).join(' ') || 'unnamed adapter';
  return `${name}${a.description ? ` (${a.description})` : ''}, ${a.fallback ? 'software fallback' : 'hardware'}`;
}

/** navigator.gpu first, then the backend; returns the adapter the backend will use. */
export async function importWebgpuBackend(o: { allowSoftware?: boolean } = {}): Promise<AdapterReport | null> {
  const { adapter } = await installGpu(o);
  await import('@tensorflow/tfjs-backend-webgpu');
  return adapter;
}
