//! JSON: the environment, the plan, every run's raw figures and the summaries. This is
//! the file `--resume` and `compare report` read back.
use super::{ExportError, Exporter};
use crate::results::Results;

pub struct JsonExporter;

impl Exporter for JsonExporter {
    fn render(&self, results: &Results) -> Result<Vec<u8>, ExportError> {
        let mut bytes = serde_json::to_vec_pretty(results).map_err(|e| ExportError::Render {
            format: "JSON",
            why: e.to_string(),
        })?;
        bytes.push(b'\n');
        Ok(bytes)
    }
}
