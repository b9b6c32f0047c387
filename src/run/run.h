#pragma once
// The measuring job: interleaved ABBA runs, adaptive rounds, results.jsonl.
// (Owned by the run work: see issue 3.)
