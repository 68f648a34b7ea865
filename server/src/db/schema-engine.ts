import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import type { SchemaEngine } from '@prisma/schema-engine-wasm';

type Bindings = typeof import('@prisma/schema-engine-wasm/schema_engine_bg');

let bindings: Promise<Bindings> | undefined;

/**
 * Prisma's own schema engine, compiled to WebAssembly (the native engine cannot be fetched here). Its package
 * imports the .wasm as an ES module, which Node 20 only allows behind a flag, so the module is instantiated here
 * the way wasm-bindgen's bundler glue expects.
 */
function loadBindings(): Promise<Bindings> {
  bindings ??= (async () => {
    const glue = (await import('@prisma/schema-engine-wasm/schema_engine_bg')) as Bindings;
    const packageDir = dirname(createRequire(import.meta.url).resolve('@prisma/schema-engine-wasm/schema_engine_bg'));
    const bytes = await readFile(join(packageDir, 'schema_engine_bg.wasm'));
    const { instance } = await WebAssembly.instantiate(bytes, { './schema_engine_bg.js': glue as unknown as WebAssembly.ModuleImports });
    (glue as unknown as { __wbg_set_wasm(w: unknown): void }).__wbg_set_wasm(instance.exports);
    (instance.exports as { __wbindgen_start(): void }).__wbindgen_start();
    return glue;
  })();
  return bindings;
}

/** A schema engine speaking to the database behind `pool`, with the given Prisma schema as its datamodel. */
export async function openSchemaEngine(pool: pg.Pool, schema?: { path: string; content: string }): Promise<SchemaEngine> {
  const { SchemaEngine } = await loadBindings();
  const adapter = bindMigrationAwareSqlAdapterFactory(new PrismaPg(pool));
  return SchemaEngine.new({ datamodels: schema ? [[schema.path, schema.content]] : undefined }, () => {}, adapter);
}
