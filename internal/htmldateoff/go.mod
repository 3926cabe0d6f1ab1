// paperlens's stand-in for go-htmldate (see htmldate.go): go.mod of paperlens
// replaces the real module with this directory.
module github.com/markusmobius/go-htmldate

go 1.26.0

require golang.org/x/net v0.60.0
