# Header-only libraries from the package registries, found at configure time (none is committed).
#
#  npu_nlohmann_json  nlohmann/json 3.12: the PyPI wheel `nlohmann_json` (a build requirement in
#                     pyproject.toml) carries include/nlohmann/*.hpp; a system copy is taken first.
#  npu_tomlplusplus   toml++ 3.x: no registry wheel carries its headers; the sdist of `pytomlpp`
#                     1.1.0 on PyPI bundles toml++ 3.4.0 (third_party/tomlplusplus/include), which
#                     `pip download` fetches once into this build tree (its SHA-256 checked). A system
#                     copy (Debian's libtomlplusplus-dev) is taken first.
# Either can be given by hand: -DNPU_SIM_NLOHMANN_JSON_INCLUDE=<dir> -DNPU_SIM_TOMLPP_INCLUDE=<dir>;
# -DNPU_SIM_FETCH_TOMLPP=OFF never downloads. toml++ is used by one source file, nlohmann/json by two
# (hcomm's rank table, hixl's Initialize options) (docs/architecture.md), so their compile cost is small. One not found stops only the build of the unit that includes it
# (an #error naming this file): a tree that builds only msPTI (tests/support/mutants.py) needs neither.
option(NPU_SIM_FETCH_TOMLPP "Fetch toml++ (pip download of the pytomlpp sdist) when no copy is found" ON)

find_package(Python3 COMPONENTS Interpreter QUIET)

# --- nlohmann/json ---
# The wheel's headers are copied into the build tree at every configure: a wheel build's Python is a
# temporary environment, gone by the next build, and a stable folder keeps the units that include
# them from recompiling at each `pip install .`.
if(NPU_SIM_NLOHMANN_JSON_INCLUDE AND NOT EXISTS "${NPU_SIM_NLOHMANN_JSON_INCLUDE}/nlohmann/json.hpp")
  unset(NPU_SIM_NLOHMANN_JSON_INCLUDE CACHE)
endif()
find_path(NPU_SIM_NLOHMANN_JSON_INCLUDE nlohmann/json.hpp DOC "folder holding nlohmann/json.hpp")
if(NOT NPU_SIM_NLOHMANN_JSON_INCLUDE AND Python3_Interpreter_FOUND)
  # Located without importing: the package's __init__ imports a module the build need not have.
  execute_process(
    COMMAND ${Python3_EXECUTABLE} -c
            "import importlib.util, os; s = importlib.util.find_spec('nlohmann_json'); print(os.path.join(s.submodule_search_locations[0], 'include'))"
    OUTPUT_VARIABLE npu_json_dir OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE npu_json_rc ERROR_QUIET)
  if(npu_json_rc EQUAL 0 AND EXISTS "${npu_json_dir}/nlohmann/json.hpp")
    set(npu_json_copy ${CMAKE_BINARY_DIR}/_deps/nlohmann_json/include)
    file(COPY "${npu_json_dir}/nlohmann" DESTINATION ${npu_json_copy})
    unset(NPU_SIM_NLOHMANN_JSON_INCLUDE CACHE)
    set(NPU_SIM_NLOHMANN_JSON_INCLUDE ${npu_json_copy})
  endif()
endif()
add_library(npu_nlohmann_json INTERFACE)
if(NPU_SIM_NLOHMANN_JSON_INCLUDE)
  target_include_directories(npu_nlohmann_json SYSTEM INTERFACE ${NPU_SIM_NLOHMANN_JSON_INCLUDE})
  target_compile_definitions(npu_nlohmann_json INTERFACE JSON_USE_IMPLICIT_CONVERSIONS=0)
else()
  message(WARNING "nlohmann/json not found: `pip install nlohmann_json==3.12.0` into the Python that "
                  "configures (${Python3_EXECUTABLE}), or give -DNPU_SIM_NLOHMANN_JSON_INCLUDE=<dir>; "
                  "libhcomm and libhixl will not build")
  target_compile_definitions(npu_nlohmann_json INTERFACE NPU_SIM_NO_NLOHMANN_JSON=1)
endif()

# --- toml++ ---
set(NPU_SIM_PYTOMLPP_VERSION 1.1.0)
set(NPU_SIM_PYTOMLPP_SHA256 61a0f73e7ba2fe8bba4e99ce6d2701491885850b53aad8f3e46d03c4b31e594d)
if(NPU_SIM_TOMLPP_INCLUDE AND NOT EXISTS "${NPU_SIM_TOMLPP_INCLUDE}/toml++/toml.hpp")
  unset(NPU_SIM_TOMLPP_INCLUDE CACHE)
endif()
find_path(NPU_SIM_TOMLPP_INCLUDE toml++/toml.hpp DOC "folder holding toml++/toml.hpp")
if(NOT NPU_SIM_TOMLPP_INCLUDE AND NPU_SIM_FETCH_TOMLPP)
  set(npu_deps ${CMAKE_BINARY_DIR}/_deps)
  set(npu_sdist ${npu_deps}/pytomlpp-${NPU_SIM_PYTOMLPP_VERSION}.tar.gz)
  set(npu_tomlpp_dir ${npu_deps}/pytomlpp-${NPU_SIM_PYTOMLPP_VERSION}/third_party/tomlplusplus/include)
  if(NOT EXISTS ${npu_tomlpp_dir}/toml++/toml.hpp)
    if(NOT EXISTS ${npu_sdist})
      if(NOT Python3_Interpreter_FOUND)
        message(FATAL_ERROR "toml++ not found and no Python to fetch it with: give -DNPU_SIM_TOMLPP_INCLUDE=<dir>")
      endif()
      message(STATUS "Fetching toml++: pip download pytomlpp==${NPU_SIM_PYTOMLPP_VERSION} (sdist)")
      # --no-build-isolation: pip prepares the sdist's metadata with the setuptools and wheel of the
      # building environment (build requirements) instead of installing them anew.
      execute_process(
        COMMAND ${Python3_EXECUTABLE} -m pip download --quiet --no-deps --no-binary :all: --no-build-isolation
                "pytomlpp==${NPU_SIM_PYTOMLPP_VERSION}" -d ${npu_deps}
        RESULT_VARIABLE npu_pip_rc OUTPUT_VARIABLE npu_pip_out ERROR_VARIABLE npu_pip_out)
      if(NOT npu_pip_rc EQUAL 0 OR NOT EXISTS ${npu_sdist})
        message(FATAL_ERROR "toml++: `pip download pytomlpp==${NPU_SIM_PYTOMLPP_VERSION}` failed (it needs pip, "
                            "setuptools and wheel in ${Python3_EXECUTABLE} and the package index); install "
                            "toml++ (Debian: libtomlplusplus-dev) or give -DNPU_SIM_TOMLPP_INCLUDE=<dir>.\n${npu_pip_out}")
      endif()
    endif()
    file(SHA256 ${npu_sdist} npu_sha)
    if(NOT npu_sha STREQUAL NPU_SIM_PYTOMLPP_SHA256)
      file(REMOVE ${npu_sdist})
      message(FATAL_ERROR "toml++: ${npu_sdist} has SHA-256 ${npu_sha}, not ${NPU_SIM_PYTOMLPP_SHA256}; removed it, configure again")
    endif()
    file(ARCHIVE_EXTRACT INPUT ${npu_sdist} DESTINATION ${npu_deps}
         PATTERNS "*/third_party/tomlplusplus/include/*" "*/third_party/tomlplusplus/LICENSE")
  endif()
  set(NPU_SIM_TOMLPP_INCLUDE ${npu_tomlpp_dir} CACHE PATH "folder holding toml++/toml.hpp" FORCE)
endif()
add_library(npu_tomlplusplus INTERFACE)
if(NPU_SIM_TOMLPP_INCLUDE)
  target_include_directories(npu_tomlplusplus SYSTEM INTERFACE ${NPU_SIM_TOMLPP_INCLUDE})
else()
  message(WARNING "toml++ not found (NPU_SIM_FETCH_TOMLPP is OFF): libnpusim will not build")
  target_compile_definitions(npu_tomlplusplus INTERFACE NPU_SIM_NO_TOMLPP=1)
endif()
