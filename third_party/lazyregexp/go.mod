module github.com/paperlens/paperlens/third_party/lazyregexp

go 1.22
