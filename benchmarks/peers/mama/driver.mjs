// MAMA driver for the peer benchmark (benchmarks/peers/run.py starts it; see README.md).
//
//   node driver.mjs fill WORKLOAD.json DIR MODELS   add every note singly, then time the queries
//   node driver.mjs cold WORKLOAD.json DIR MODELS   open DIR's store, answer one query, exit
//   node driver.mjs embed WORKLOAD.json DIR MODELS  MAMA's vectors of the workload's first
//                                                   query and note (to check the model)
//
// MODELS is the local model folder run.py assembles from the model Kenning ships:
// transformers.js reads it and never reaches a model hub (remote models are turned off).
// HOME must be a scratch folder: MAMA keeps its config in ~/.mama/config.json.
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const [mode, workloadPath, dir, models] = process.argv.slice(2);
if (!['fill', 'cold', 'embed'].includes(mode) || !workloadPath || !dir || !models) {
  console.error('usage: node driver.mjs fill|cold|embed WORKLOAD.json DIR MODELS');
  process.exit(2);
}
const workload = JSON.parse(readFileSync(workloadPath, 'utf8'));

// MAMA reads its model name from ~/.mama/config.json and its database path from MAMA_DB_PATH.
mkdirSync(join(process.env.HOME, '.mama'), { recursive: true });
writeFileSync(join(process.env.HOME, '.mama', 'config.json'),
  JSON.stringify({ modelName: workload.model_id, embeddingDim: workload.dim }));
process.env.MAMA_DB_PATH = join(dir, 'mama.db');

// The same module instance MAMA imports later: these settings are the ones it loads under.
const { env } = await import('@huggingface/transformers');
env.allowRemoteModels = false;
env.localModelPath = models.endsWith('/') ? models : `${models}/`;
env.cacheDir = join(dir, 'hf-cache');

const require = createRequire(import.meta.url);
const mama = require('@jungjaehoon/mama-server/src/mama/mama-api.js');

function hitCount(result) {
  return result && Array.isArray(result.results) ? result.results.length : 0;
}

async function search(query) {
  return hitCount(await mama.suggest(query, { limit: workload.k }));
}

if (mode === 'embed') {
  const { generateEmbedding } = require('@jungjaehoon/mama-server/src/mama/embeddings.js');
  const texts = [workload.queries[0], workload.notes[0].text];
  const vectors = [];
  for (const text of texts) vectors.push(Array.from(await generateEmbedding(text)));
  process.stdout.write(`${JSON.stringify({ texts, vectors })}\n`);
  process.exit(0);
}

if (mode === 'cold') {
  const hits = await search(workload.cold_query);
  process.stdout.write(`answer ${hits}\n`);
  process.exit(0);
}

const addMs = [];
const started = performance.now();
for (const [i, note] of workload.notes.entries()) {
  const t0 = performance.now();
  await mama.save({
    // A topic is one evolving decision in MAMA (a save supersedes the topic's last one);
    // the index keeps every note of the workload a live memory, as in the other systems.
    topic: `${note.topic}_${i}`,
    decision: note.text,
    reasoning: `${note.type} note`,
    type: 'user_decision',
  });
  addMs.push(performance.now() - t0);
}
const addWallS = (performance.now() - started) / 1000;
for (const q of workload.warmup) await search(q);
const searchMs = [];
const hits = [];
for (const q of workload.queries) {
  const t0 = performance.now();
  const n = await search(q);
  searchMs.push(performance.now() - t0);
  hits.push(n);
}
process.stdout.write(`${JSON.stringify({ add_ms: addMs, add_wall_s: addWallS, settle_s: 0,
  search_ms: searchMs, hits })}\n`);
process.exit(0);
