module workloadmap.dev/bench/gojq-anchor

go 1.26.3

require github.com/itchyny/gojq v0.12.20

require github.com/itchyny/timefmt-go v0.1.9 // indirect
