# Turns the drive model files given in FILES into a C table written to OUT:
#   const struct hd_preset hd_presets[]; const size_t hd_npresets;
# The preset's name is the file name without ".drive".
set(body "/* Generated from the .drive files in data/drives by data/embed.cmake; do not edit. */\n#include <stddef.h>\n#include \"hddscope/preset.h\"\n\n")
set(table "")
set(n 0)
list(SORT FILES)
foreach(f IN LISTS FILES)
  get_filename_component(name ${f} NAME_WE)
  file(READ ${f} hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," hex "${hex}")
  string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" hex "${hex}")
  string(APPEND body "static const char preset_${n}[] = {\n${hex}0x00};\n")
  string(APPEND table "\t{\"${name}\", preset_${n}, sizeof(preset_${n}) - 1},\n")
  math(EXPR n "${n} + 1")
endforeach()
string(APPEND body "\nconst struct hd_preset hd_presets[] = {\n${table}\t{NULL, NULL, 0}\n};\nconst size_t hd_npresets = ${n};\n")
file(WRITE ${OUT}.tmp "${body}")
file(RENAME ${OUT}.tmp ${OUT})
