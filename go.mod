module github.com/shellbox/shellbox

go 1.26.8
