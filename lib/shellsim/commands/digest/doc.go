// Package digest holds ShellSim's checksum, encoding and dump commands:
// md5sum, sha1sum, sha256sum, sha512sum, cksum, base64, base32, xxd, od,
// hexdump and strings.
package digest
