// Package cliflags holds the flag sets several paperlens commands share,
// and turns what they parse into the option structs of the library
// packages: the index flags into a session.Index, the rerank flags into a
// session.Rerank, the sweep flags into a retrieval.SweepConfig, and eval's
// whole flag set (which study and ask share) into a session.Request.
//
// The flag names, defaults and help strings are a contract (scripts use
// them), so they live in one place, above the library packages, which
// declare no flags and take plain structs. Each set is declared on a
// *pflag.FlagSet by an Add function or method; what it needs of the
// invocation (the home, the environment, the command line, the streams)
// the caller passes in an Invocation, so that nothing here is package
// state and commands run in parallel in one process. The commands' longer
// help stays with the commands.
package cliflags
