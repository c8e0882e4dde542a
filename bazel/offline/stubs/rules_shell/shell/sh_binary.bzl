sh_binary = native.sh_binary
