const Sequencer = require('@jest/test-sequencer').default;
const { SLOW } = require('../tiers');

/**
 * Jest's order (files that failed last time first, then by the durations it remembers), except that the files
 * test/tiers.js knows to be slow start first. A fresh clone has no remembered durations, and Jest then orders by
 * file size: a small file that runs for minutes (the 100,000-message round trip) would start last and leave one
 * worker busy long after the other has finished.
 */
class SlowFirstSequencer extends Sequencer {
  sort(tests) {
    const rank = (test) => {
      const index = SLOW.findIndex((file) => test.path.endsWith(`/test/e2e/${file}`));
      return index < 0 ? SLOW.length : index;
    };
    // Array.prototype.sort is stable: the rest keep Jest's order.
    return [...super.sort(tests)].sort((a, b) => rank(a) - rank(b));
  }
}

module.exports = SlowFirstSequencer;
