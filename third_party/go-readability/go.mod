module github.com/go-shiori/go-readability

go 1.20

require (
	github.com/araddon/dateparse v0.0.0-20210429162001-6b43995a97de
	github.com/go-shiori/dom v0.0.0-20230515143342-73569d674e1c
	github.com/sergi/go-diff v1.1.0
	github.com/spf13/cobra v1.0.0
	github.com/stretchr/testify v1.7.0
	golang.org/x/net v0.29.0
)

require (
	github.com/andybalholm/cascadia v1.3.2 // indirect
	github.com/davecgh/go-spew v1.1.1 // indirect
	github.com/gogs/chardet v0.0.0-20211120154057-b7413eaefb8f // indirect
	github.com/inconshreveable/mousetrap v1.0.0 // indirect
	github.com/paperlens/paperlens/third_party/lazyregexp v0.0.0-00010101000000-000000000000
	github.com/pmezard/go-difflib v1.0.0 // indirect
	github.com/spf13/pflag v1.0.5 // indirect
	golang.org/x/text v0.18.0 // indirect
	gopkg.in/yaml.v3 v3.0.0-20200313102051-9f266ea9e77c // indirect
)

replace github.com/paperlens/paperlens/third_party/lazyregexp => ../lazyregexp
