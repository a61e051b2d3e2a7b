//! multilingual-e5-small and all-MiniLM-L6-v2 as one dense vector: a passage is the two
//! models' vectors side by side, so that the store's cosine between a question and a
//! passage is e5's similarity plus a weighted share of MiniLM's. MiniLM reads English
//! only; e5 reads English filings less well than MiniLM does (its dense half alone finds
//! a filing's evidence less often), and the two together find it more often than either.

/// How much MiniLM's similarity counts against e5's for an English question. A quarter
/// lifts the tree strategies on English filings above e5 alone, where a smaller or a
/// larger share lifts them less; on short English articles, which e5 reads well, it
/// finds about what e5 alone does.
pub const ENGLISH_QUESTION_MINILM_WEIGHT: f32 = 0.25;

/// A passage's vector: e5's and MiniLM's, each of unit length, side by side and scaled
/// to unit length together, so that every passage weighs the two models alike.
pub(super) fn passage(e5: &[f32], minilm: &[f32]) -> Vec<f32> {
    let scale = std::f32::consts::FRAC_1_SQRT_2;
    e5.iter().chain(minilm).map(|x| x * scale).collect()
}

/// A question's vector: e5's, then MiniLM's times its weight for an English question
/// (none for another language, whose question MiniLM cannot read: its half is zeros
/// and the ranking is e5's alone), scaled to unit length. The cosine with a passage is
/// then proportional to `e5 + weight × MiniLM`, the same factor for every passage.
pub(super) fn question(e5: &[f32], minilm: Option<&[f32]>, minilm_dimension: usize) -> Vec<f32> {
    let mut vector = Vec::with_capacity(e5.len() + minilm_dimension);
    vector.extend_from_slice(e5);
    match minilm {
        Some(minilm) => vector.extend(minilm.iter().map(|x| x * ENGLISH_QUESTION_MINILM_WEIGHT)),
        None => vector.resize(e5.len() + minilm_dimension, 0.0),
    }
    super::normalise(&mut vector);
    vector
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cosine(a: &[f32], b: &[f32]) -> f32 {
        let dot: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
        let norm = |v: &[f32]| v.iter().map(|x| x * x).sum::<f32>().sqrt();
        dot / (norm(a) * norm(b))
    }

    fn unit(values: &[f32]) -> Vec<f32> {
        let mut v = values.to_vec();
        super::super::normalise(&mut v);
        v
    }

    #[test]
    fn an_english_question_ranks_passages_by_e5_plus_a_share_of_minilm() {
        let question_e5 = unit(&[1.0, 0.2, 0.0]);
        let question_minilm = unit(&[0.0, 1.0, 0.3]);
        let asked = question(&question_e5, Some(&question_minilm), 3);
        let passages = [
            (unit(&[0.9, 0.1, 0.4]), unit(&[0.2, 0.9, 0.1])),
            (unit(&[1.0, 0.3, 0.0]), unit(&[1.0, 0.0, 0.2])),
            (unit(&[0.2, 1.0, 0.1]), unit(&[0.1, 1.0, 0.3])),
        ];
        let ratios: Vec<f32> = passages
            .iter()
            .map(|(e5, minilm)| {
                let combined = cosine(&asked, &passage(e5, minilm));
                let wanted = cosine(&question_e5, e5)
                    + ENGLISH_QUESTION_MINILM_WEIGHT * cosine(&question_minilm, minilm);
                combined / wanted
            })
            .collect();
        // One factor for every passage: the ranking and every min-max scale are kept.
        for ratio in &ratios {
            assert!((ratio - ratios[0]).abs() < 1e-5, "{ratios:?}");
        }
    }

    #[test]
    fn another_language_ranks_passages_by_e5_alone() {
        let question_e5 = unit(&[0.3, 1.0, 0.2]);
        let asked = question(&question_e5, None, 3);
        assert_eq!(asked.len(), 6);
        let passages = [
            (unit(&[0.9, 0.1, 0.4]), unit(&[0.2, 0.9, 0.1])),
            (unit(&[0.2, 1.0, 0.1]), unit(&[1.0, 0.0, 0.0])),
        ];
        let ratios: Vec<f32> = passages
            .iter()
            .map(|(e5, minilm)| cosine(&asked, &passage(e5, minilm)) / cosine(&question_e5, e5))
            .collect();
        assert!((ratios[0] - ratios[1]).abs() < 1e-5, "{ratios:?}");
    }

    #[test]
    fn a_passage_is_of_unit_length() {
        let vector = passage(&unit(&[1.0, 2.0]), &unit(&[3.0, -1.0, 0.5]));
        let norm: f32 = vector.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-6);
        assert_eq!(vector.len(), 5);
    }
}
