// MAMA driver for the peer benchmark (benchmarks/peers/run.py starts it; see ../README.md).
// The same protocol as the Python drivers (../driverkit.py):
//
//   node driver.mjs serve WORKLOAD.json DIR MODELS  fresh store in DIR, then one JSON command
//                                                   per stdin line, one JSON reply per line
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
import { createInterface } from 'node:readline';

const [mode, workloadPath, dir, models] = process.argv.slice(2);
if (!['serve', 'cold', 'embed'].includes(mode) || !workloadPath || !dir || !models) {
  console.error('usage: node driver.mjs serve|cold|embed WORKLOAD.json DIR MODELS');
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

const reply = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);

async function search(query) {
  const result = await mama.suggest(query, { limit: workload.k });
  return result && Array.isArray(result.results) ? result.results.length : 0;
}

async function add(i, note) {
  await mama.save({
    // A topic is one evolving decision in MAMA (a save supersedes the topic's last one);
    // the index keeps every note of the workload a live memory, as in the other systems.
    topic: `${note.topic}_${i}`,
    decision: note.text,
    reasoning: `${note.type} note`,
    type: 'user_decision',
  });
}

if (mode === 'embed') {
  const { generateEmbedding } = require('@jungjaehoon/mama-server/src/mama/embeddings.js');
  const texts = [workload.queries[0], workload.notes[0].text];
  const vectors = [];
  for (const text of texts) vectors.push(Array.from(await generateEmbedding(text)));
  reply({ texts, vectors });
  process.exit(0);
}

if (mode === 'cold') {
  process.stdout.write(`answer ${await search(workload.cold_query)}\n`);
  process.exit(0);
}

reply({ ready: true });
for await (const line of createInterface({ input: process.stdin })) {
  const cmd = JSON.parse(line);
  if (cmd.op === 'add') {
    const addMs = [];
    const started = performance.now();
    for (let i = cmd.from; i < cmd.to; i += 1) {
      const t0 = performance.now();
      await add(i, workload.notes[i]);
      addMs.push(performance.now() - t0);
    }
    reply({ add_ms: addMs, wall_s: (performance.now() - started) / 1000 });
  } else if (cmd.op === 'settle') {
    reply({ settle_s: 0 }); // every save embeds before it returns
  } else if (cmd.op === 'search') {
    const searchMs = [];
    const hits = [];
    for (const query of workload[cmd.set].slice(cmd.from, cmd.to)) {
      const t0 = performance.now();
      hits.push(await search(query));
      searchMs.push(performance.now() - t0);
    }
    reply({ search_ms: searchMs, hits });
  } else if (cmd.op === 'close') {
    reply({ closed: true });
    process.exit(0);
  } else {
    console.error(`unknown command ${line}`);
    process.exit(2);
  }
}
