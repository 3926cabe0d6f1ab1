// Package testkit holds paperlens's test doubles and test helpers, one
// package each: loopback servers that speak the real protocols
// (modeltest, openaitest, reranktest, qdranttest), fixtures built from the
// repository's sample data (sampletest, pdftest, testcorpus), contract
// suites (vectortest) and checks (scaling).
//
// Only _test.go files import them; TestOnlyTestsImportTestkit keeps it so,
// so that no test double can end up in the paperlens binary.
package testkit
