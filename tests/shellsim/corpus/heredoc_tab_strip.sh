if true; then
	cat <<-EOF
	indented line
		double indented
	EOF
fi
