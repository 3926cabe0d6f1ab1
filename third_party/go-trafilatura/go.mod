module github.com/markusmobius/go-trafilatura

go 1.22.0

toolchain go1.22.5

require (
	github.com/RadhiFadlillah/whatlanggo v0.0.0-20240916001553-aac1f0f737fc
	github.com/andybalholm/cascadia v1.3.2
	github.com/beevik/etree v1.2.0
	github.com/forPelevin/gomoji v1.2.0
	github.com/go-shiori/dom v0.0.0-20230515143342-73569d674e1c
	github.com/go-shiori/go-readability v0.0.0-20241012063810-92284fa8a71f
	github.com/markusmobius/go-domdistiller v0.0.0-20240926050704-25b8d046ffb4
	github.com/markusmobius/go-htmldate v1.9.1
	github.com/matoous/go-nanoid/v2 v2.0.0
	github.com/rs/zerolog v1.33.0
	github.com/spf13/cobra v1.8.0
	github.com/stretchr/testify v1.9.0
	github.com/yosssi/gohtml v0.0.0-20201013000340-ee4748c638f4
	golang.org/x/net v0.30.0
	golang.org/x/sync v0.8.0
	golang.org/x/text v0.19.0
)

require (
	github.com/araddon/dateparse v0.0.0-20210429162001-6b43995a97de // indirect
	github.com/davecgh/go-spew v1.1.1 // indirect
	github.com/elliotchance/pie/v2 v2.9.0 // indirect
	github.com/gogs/chardet v0.0.0-20211120154057-b7413eaefb8f // indirect
	github.com/hablullah/go-hijri v1.0.2 // indirect
	github.com/hablullah/go-juliandays v1.0.0 // indirect
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/jalaali/go-jalaali v0.0.0-20210801064154-80525e88d958 // indirect
	github.com/markusmobius/go-dateparser v1.2.3 // indirect
	github.com/mattn/go-colorable v0.1.13 // indirect
	github.com/mattn/go-isatty v0.0.20 // indirect
	github.com/paperlens/paperlens/third_party/lazyregexp v0.0.0-00010101000000-000000000000
	github.com/pmezard/go-difflib v1.0.0 // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	github.com/spf13/pflag v1.0.5 // indirect
	github.com/tetratelabs/wazero v1.8.1 // indirect
	github.com/wasilibs/go-re2 v1.7.0 // indirect
	github.com/wasilibs/wazero-helpers v0.0.0-20240620070341-3dff1577cd52 // indirect
	golang.org/x/exp v0.0.0-20241009180824-f66d83c29e7c // indirect
	golang.org/x/sys v0.26.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)

replace github.com/paperlens/paperlens/third_party/lazyregexp => ../lazyregexp
