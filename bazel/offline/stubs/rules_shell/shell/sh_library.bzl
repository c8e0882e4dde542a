sh_library = native.sh_library
