import { benchJobs } from './jobs-bench.js';
const log = (line: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
const figures = await benchJobs('pglite', 'postgres://postgres@127.0.0.1:1/none', log);
for (const f of figures) log(`${f.name} ${f.value.toFixed(2)} ${f.detail}`);
log(`active resources after benchJobs: ${JSON.stringify(process.getActiveResourcesInfo())}`);
setTimeout(() => log('still alive 15 s later: something did not close'), 15_000).unref();
