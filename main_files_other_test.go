//go:build !unix

package main

// lowerFileLimit does nothing where there is no RLIMIT_NOFILE.
func lowerFileLimit(string) {}
