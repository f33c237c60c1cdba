// Package transfer moves file trees as tar streams with path safety: the
// writer refuses symbolic links that leave the tree and the extractor never
// creates or follows anything outside its target directory. It is shared
// by backends that copy files into and out of sandboxes.
package transfer
