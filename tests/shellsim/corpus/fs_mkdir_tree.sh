mkdir -p project/{src,tests,docs}
mkdir -p project/src/utils
touch project/src/main.py project/src/utils/helpers.py project/tests/test_main.py
find project | sort
