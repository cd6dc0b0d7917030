"""tablegen/transitive.py: the names a CUDA header brings through its includes that the HIP header does not."""

from __future__ import annotations

from pathlib import Path

from hipify.tablegen.transitive import brought_names, closure


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def test_names_of_same_path_headers_the_hip_side_does_not_reach(tmp_path: Path) -> None:
    cuda = _write(
        tmp_path / "cuda",
        {
            "cub/cub.cuh": "#include <cub/device.cuh>\n",
            "cub/device.cuh": '#include "../thrust/iterator/counting_iterator.h"\n#include <thrust/tuple.h>\n',
            "thrust/iterator/counting_iterator.h": (
                "THRUST_NAMESPACE_BEGIN\ntemplate <class T> class counting_iterator {};\n"
                "namespace detail { struct helper {}; }\n"
                "template <class T> counting_iterator<T> make_counting_iterator(T x);\nTHRUST_NAMESPACE_END\n"
            ),
            "thrust/tuple.h": "THRUST_NAMESPACE_BEGIN\ntemplate <class... T> class tuple {};\nTHRUST_NAMESPACE_END\n",
        },
    )
    hip = _write(
        tmp_path / "hip",
        {
            "hipcub/hipcub.hpp": "#include <thrust/tuple.h>\n",
            "thrust/tuple.h": "namespace thrust {\ntemplate <class... T> class tuple {};\n}\n",
            # the attribute macro hides the class from the declaration scanner
            "thrust/iterator/counting_iterator.h": (
                "namespace thrust {\n// class not_a_name : in a comment\n"
                "template <class T> class THRUST_DECLSPEC_EMPTY_BASES counting_iterator\n{};\n"
                "template <class T> counting_iterator<T> make_counting_iterator(T x);\n}\n"
            ),
        },
    )
    assert set(closure("cub/cub.cuh", (cuda,))) == {
        "cub/cub.cuh",
        "cub/device.cuh",
        "thrust/iterator/counting_iterator.h",
        "thrust/tuple.h",
    }
    assert brought_names("cub/cub.cuh", (cuda,), "hipcub/hipcub.hpp", (hip,)) == (
        "thrust::counting_iterator=thrust/iterator/counting_iterator.h "
        "thrust::make_counting_iterator=thrust/iterator/counting_iterator.h"
    )


def test_nothing_without_a_same_path_library(tmp_path: Path) -> None:
    cuda = _write(tmp_path / "cuda", {"cuda_runtime.h": "#include <vector_types.h>\n", "vector_types.h": "struct x;\n"})
    hip = _write(tmp_path / "hip", {"hip/hip_runtime.h": "struct x;\n"})
    assert brought_names("cuda_runtime.h", (cuda,), "hip/hip_runtime.h", (hip,)) == ""
