// Package stats holds the statistics for comparing evaluation runs: mean ±
// standard deviation over repeated runs (ElaipBench reports the mean of 3 API
// calls), a paired bootstrap confidence interval and McNemar's test for the
// accuracy difference between a baseline and a treatment (e.g. closed-book
// vs RAG) on the same questions, and ROUGE-L for lexical overlap (LPFQA
// §4.2.2 uses it to gauge pre-training exposure).
//
// Choices the papers leave open, made here:
//
//   - MeanStd uses the sample standard deviation (divisor n−1), the usual
//     reading of "mean ± std over 3 runs"; with fewer than two values the
//     std is 0, and an empty slice gives 0, 0.
//   - PairedBootstrap resamples question indices with replacement (the
//     questions are the random unit, runs are already averaged into each
//     question's score), 10,000 resamples by default, from a PCG generator
//     seeded by the caller so reports are reproducible. The interval is the
//     percentile interval at 2.5 % and 97.5 % with linear interpolation
//     between order statistics (Hyndman–Fan type 7, R's default).
//   - McNemar uses the exact two-sided binomial test (p = min(1, 2·P(X ≤
//     min(b01, b10))), X ~ Bin(b01+b10, ½)) when there are fewer than 25
//     discordant pairs, else the χ² statistic with Edwards' continuity
//     correction, (|b01−b10|−1)²/(b01+b10) on 1 degree of freedom, with the
//     bracket floored at 0 so equal counts give p = 1. No discordant pairs
//     gives p = 1.
//   - Compare needs one binary outcome per question. Which one (run 1, the
//     majority of runs, "correct in every run") is the caller's choice; the
//     bootstrap half of the report can instead be fed per-question fractions
//     through PairedBootstrap.
//   - RougeL tokenises on Unicode letters and digits after NFKC and
//     lower-casing, treats every Han, Hiragana and Katakana character as a
//     token of its own (Chinese LPFQA answers have no spaces), and scores the
//     LCS F-measure with β = 1. An empty candidate or reference scores 0, as
//     in Google's rouge-score package. No stemming or stop-word removal.
//
// Mismatched lengths for paired inputs are programming errors and panic,
// as gonum does.
package stats
