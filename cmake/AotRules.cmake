# aot_rules for CMake builds (vendor IDE exports, Zephyr, ESP-IDF, plain CMake): the models' C is generated at
# build time by the installed `aotc` (pip install aot-rules), the C runtime comes from `aotc crt`.
#
#   include(path/to/aot_rules/cmake/AotRules.cmake)
#   aot_crt_library(aot_crt)                                   # once per core (the toolchain's flags)
#   aot_model_library(kws MODEL kws.tflite PREFIX kws TARGET cortex-m4 CRT aot_crt)
#   aot_reference_data(kws_ref MODEL kws.tflite PREFIX kws COUNT 2)   # optional: seeded cases + oracle outputs
#   target_link_libraries(app PRIVATE kws kws_ref)
#
# AOTC (cache variable) is the `aotc` to run; by default the one on PATH.

find_program(AOTC aotc DOC "The aot_rules compiler (pip install aot-rules)")
if(NOT AOTC)
  message(FATAL_ERROR "aot_rules: `aotc` not found on PATH; install it with `pip install aot-rules` or set -DAOTC=...")
endif()

# aot_crt_library(NAME): a static library of the C runtime, compiled with this build's (the toolchain's) flags.
function(aot_crt_library name)
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/${name}_src")
  if(NOT EXISTS "${dir}/include/aot")
    execute_process(COMMAND "${AOTC}" crt --out_dir "${dir}" --quiet RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "aot_rules: `${AOTC} crt --out_dir ${dir}` failed")
    endif()
  endif()
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS "${dir}/src/*.c")
  add_library(${name} STATIC ${sources})
  target_include_directories(${name} PUBLIC "${dir}/include")
  set_target_properties(${name} PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON)
  target_compile_options(${name} PRIVATE -ffunction-sections -fdata-sections)
endfunction()

# aot_model_library(NAME MODEL file PREFIX p [TARGET core] [CRT crt_target] [FLAGS aotc flags...]):
# `aotc compile` at build time -> p.h, p.c, p_weights.c (and p.json, the report) in a static library NAME.
function(aot_model_library name)
  cmake_parse_arguments(A "" "MODEL;PREFIX;TARGET;CRT" "FLAGS" ${ARGN})
  if(NOT A_MODEL OR NOT A_PREFIX)
    message(FATAL_ERROR "aot_model_library(${name}): MODEL and PREFIX are required")
  endif()
  if(NOT A_TARGET)
    set(A_TARGET host)
  endif()
  get_filename_component(model "${A_MODEL}" ABSOLUTE)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/${name}_gen")
  set(p "${out}/${A_PREFIX}")
  add_custom_command(
    OUTPUT "${p}.h" "${p}.c" "${p}_weights.c" "${p}.json"
    COMMAND "${AOTC}" compile "${model}" --prefix "${A_PREFIX}" --out_dir "${out}" --target "${A_TARGET}" --quiet
            ${A_FLAGS}
    DEPENDS "${model}"
    COMMENT "aotc: ${A_MODEL} -> ${A_PREFIX}.c (${A_TARGET})"
    VERBATIM)
  add_library(${name} STATIC "${p}.c" "${p}_weights.c" "${p}.h")
  target_include_directories(${name} PUBLIC "${out}")
  set_target_properties(${name} PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON)
  target_compile_options(${name} PRIVATE -ffunction-sections -fdata-sections)
  if(A_CRT)
    target_link_libraries(${name} PUBLIC ${A_CRT})
  endif()
endfunction()

# aot_reference_data(NAME MODEL file PREFIX p [COUNT n] [SEED s]): `aotc refdata` -> p_ref.h / p_ref.c, seeded
# input cases and the oracle's outputs (TFLite Micro / onnxruntime: pip install 'aot-rules[oracles]').
function(aot_reference_data name)
  cmake_parse_arguments(A "" "MODEL;PREFIX;COUNT;SEED" "" ${ARGN})
  if(NOT A_COUNT)
    set(A_COUNT 1)
  endif()
  if(NOT A_SEED)
    set(A_SEED 0)
  endif()
  get_filename_component(model "${A_MODEL}" ABSOLUTE)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/${name}_gen")
  set(p "${out}/${A_PREFIX}_ref")
  add_custom_command(
    OUTPUT "${p}.h" "${p}.c"
    COMMAND "${AOTC}" refdata "${model}" --prefix "${A_PREFIX}" --out_dir "${out}" --count ${A_COUNT}
            --seed ${A_SEED} --quiet
    DEPENDS "${model}"
    COMMENT "aotc: reference data of ${A_MODEL}"
    VERBATIM)
  add_library(${name} STATIC "${p}.c" "${p}.h")
  target_include_directories(${name} PUBLIC "${out}")
  set_target_properties(${name} PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON)
endfunction()
