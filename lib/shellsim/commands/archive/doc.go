// Package archive holds ShellSim's archive and compression commands: tar,
// gzip, gunzip, zcat, zip and unzip. Extraction is bounded, refuses member
// names and links that would leave the target directory, and is atomic:
// a failing extraction removes what it created and restores what it
// overwrote.
package archive
