// Jest test sequencer for `--shard`: splits the spec files so the shards take about the same time,
// where Jest's own split takes equal numbers of files by the hash of their paths (one shard got the
// three heaviest panel-api specs). Each file weighs what it took in an earlier full run
// (tools/testing/spec-seconds.json, written by `node tools/scripts/spec-seconds.mjs` after `npm test`);
// a file not listed yet weighs the median. The heaviest files are placed first, each on the shard
// that has least so far (longest processing time first), and every shard runs its heaviest first.
const Sequencer = require('@jest/test-sequencer').default;
const { readFileSync } = require('node:fs');
const { join, relative } = require('node:path');

const root = join(__dirname, '../..');
const seconds = JSON.parse(readFileSync(join(__dirname, 'spec-seconds.json'), 'utf8')).files;
const known = Object.values(seconds).sort((a, b) => a - b);
const median = known.length ? known[Math.floor(known.length / 2)] : 1;

const weightOf = (test) => seconds[relative(root, test.path).split('\\').join('/')] ?? median;
const heaviestFirst = (a, b) => weightOf(b) - weightOf(a) || (a.path < b.path ? -1 : 1);

class BalancedSequencer extends Sequencer {
  shard(tests, { shardIndex, shardCount }) {
    const loads = new Array(shardCount).fill(0);
    const mine = [];
    for (const test of [...tests].sort(heaviestFirst)) {
      const lightest = loads.indexOf(Math.min(...loads));
      loads[lightest] += weightOf(test);
      if (lightest === shardIndex - 1) mine.push(test);
    }
    return mine;
  }

  sort(tests) {
    return [...tests].sort(heaviestFirst);
  }
}

module.exports = BalancedSequencer;
