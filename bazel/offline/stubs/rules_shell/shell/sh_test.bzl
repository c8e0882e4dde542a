sh_test = native.sh_test
