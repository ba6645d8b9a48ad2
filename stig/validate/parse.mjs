// Reads one compliance export with the STIG Manager client modules, the parser STIG Manager
// imports checklists with, and prints what it parsed to as JSON on stdout:
//   {"target": {...}, "errors": [...], "checklists": [{"benchmarkId", "revisionStr", "stats",
//    "results": {"<rule id>": "pass|fail|notapplicable|notchecked"}, "details": {...}}]}
// Usage: node parse.mjs ckl|cklb|xccdf FILE
// Exits 1, saying why on stderr, when the parser refuses the file.
import { readFileSync } from 'node:fs'
import {
  reviewsFromCkl,
  reviewsFromCklb,
  reviewsFromXccdf,
} from '@nuwcdivnpt/stig-manager-client-modules'

const [format, file] = process.argv.slice(2)
const parsers = { ckl: reviewsFromCkl, cklb: reviewsFromCklb, xccdf: reviewsFromXccdf }
if (!parsers[format] || !file) {
  console.error('usage: node parse.mjs ckl|cklb|xccdf FILE')
  process.exit(2)
}

// As a STIG Manager collection set to import every rule, reviewed or not, with its text.
const importOptions = {
  autoStatus: { fail: 'submitted', notapplicable: 'submitted', pass: 'submitted' },
  unreviewed: 'always',
  unreviewedCommented: 'notchecked',
  emptyDetail: 'import',
  emptyComment: 'import',
  allowCustom: true,
}
const fieldSettings = {
  detail: { enabled: 'always', required: 'optional' },
  comment: { enabled: 'always', required: 'optional' },
}

let parsed
try {
  parsed = parsers[format]({
    data: readFileSync(file, 'utf8'),
    importOptions,
    fieldSettings,
    allowAccept: false,
    scapBenchmarkMap: new Map(),
    sourceRef: file,
  })
} catch (e) {
  console.error(`STIG Manager's ${format} parser refused ${file}: ${e.message}`)
  process.exit(1)
}

const out = {
  target: parsed.target,
  errors: parsed.errors ?? [],
  checklists: parsed.checklists.map((c) => ({
    benchmarkId: c.benchmarkId,
    revisionStr: c.revisionStr,
    stats: c.stats,
    results: Object.fromEntries(c.reviews.map((r) => [r.ruleId, r.result])),
    details: Object.fromEntries(c.reviews.map((r) => [r.ruleId, r.detail ?? ''])),
  })),
}
process.stdout.write(JSON.stringify(out))
