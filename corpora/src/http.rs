//! Downloads over HTTPS (ureq with native-tls: the operating system's certificate store;
//! `HTTPS_PROXY` is honoured) and `file://` reads, each step with a time limit, and the
//! progress bars every download and unpack shows.

use std::io::Read;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Why a download failed.
#[derive(Debug)]
pub(crate) struct GetError {
    /// What went wrong, in one line.
    pub why: String,
    /// No answer came from the host at all (name resolution, connection, TLS, no response),
    /// as opposed to an answer that was an error or a body that broke off.
    pub unreachable: bool,
}

/// The body at `url`, at most `limit` bytes; a body shorter than the length the server
/// announced is an error, so an interrupted download never passes for a whole one.
pub(crate) fn get(url: &str, label: &str, limit: u64, progress: bool) -> Result<Vec<u8>, GetError> {
    let failed = |why: String| GetError {
        why,
        unreachable: false,
    };
    if let Some(path) = url.strip_prefix("file://") {
        return std::fs::read(path).map_err(|e| failed(format!("{path}: {e}")));
    }
    let tls = ureq::tls::TlsConfig::builder()
        .provider(ureq::tls::TlsProvider::NativeTls)
        .root_certs(ureq::tls::RootCerts::PlatformVerifier)
        .build();
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .tls_config(tls)
        // Every step has a limit, so an unreachable or silent server ends in an error.
        .timeout_resolve(Some(Duration::from_secs(30)))
        .timeout_connect(Some(Duration::from_secs(30)))
        .timeout_send_request(Some(Duration::from_secs(30)))
        .timeout_recv_response(Some(Duration::from_secs(60)))
        .timeout_recv_body(Some(Duration::from_secs(300)))
        .build()
        .into();
    let mut response = agent.get(url).call().map_err(|e| GetError {
        unreachable: !matches!(e, ureq::Error::StatusCode(_)),
        why: e.to_string(),
    })?;
    let body = response.body_mut();
    let len = body.content_length();
    let bar = bar(progress, len.unwrap_or(0), label);
    let mut bytes = Vec::with_capacity(len.unwrap_or(0).min(limit) as usize);
    bar.wrap_read(body.with_config().limit(limit).reader())
        .read_to_end(&mut bytes)
        .map_err(|e| failed(e.to_string()))?;
    bar.finish_and_clear();
    if let Some(len) = len
        && len != bytes.len() as u64
    {
        return Err(failed(format!("got {} of {len} bytes", bytes.len())));
    }
    Ok(bytes)
}

/// A progress bar by bytes on stderr, or a hidden one.
pub(crate) fn bar(progress: bool, len: u64, message: &str) -> ProgressBar {
    if !progress {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("{msg} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec}")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(message.to_string());
    bar
}
