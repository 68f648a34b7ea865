import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import pg from 'pg';
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

type ScriptAdapter = { executeScript(script: string): Promise<void>; underlyingDriver(): pg.PoolClient | pg.Pool; onError(e: unknown): never };

/**
 * A schema engine on its own one-connection pool to the database `config` reaches, with the given Prisma schema as
 * its datamodel. Its own pool because the engine takes a session advisory lock that it never releases (closing the
 * connection does): `close()` ends it.
 */
export async function openSchemaEngine(config: pg.PoolConfig, schema?: { path: string; content: string }): Promise<{ engine: SchemaEngine; close(): Promise<void> }> {
  const { SchemaEngine } = await loadBindings();
  const pool = new pg.Pool({ ...config, max: 1 });
  pool.on('error', () => {});
  const factory = new PrismaPg(pool);
  // @prisma/adapter-pg runs a migration script split on ';', statement by statement and outside a transaction; send
  // it whole instead, so PostgreSQL runs it as one implicit transaction and `$$` bodies survive.
  const patch = <A>(adapter: A): A => {
    const a = adapter as unknown as ScriptAdapter;
    a.executeScript = async (script: string) => {
      try {
        await a.underlyingDriver().query(script);
      } catch (e) {
        a.onError(e);
      }
    };
    return adapter;
  };
  const patched = {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => patch(await factory.connect()),
    connectToShadowDb: async () => patch(await factory.connectToShadowDb()),
  } as typeof factory;
  const engine = await SchemaEngine.new({ datamodels: schema ? [[schema.path, schema.content]] : undefined }, () => {}, bindMigrationAwareSqlAdapterFactory(patched));
  return {
    engine,
    async close() {
      engine.free();
      await pool.end().catch(() => {});
    },
  };
}
