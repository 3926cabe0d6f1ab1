// Package whatlanggo detects natural languages and scripts ( writing systems ).
// Languages are represented by a determined list of constants while scripts are
// represented by *unicode.RangeTable.
package whatlanggo
