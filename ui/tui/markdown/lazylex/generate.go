package lazylex

//go:generate go run ./gen embedded
