# Homebrew formula for dreamd, for a tap (`brew tap <you>/dreamd <repo>`, then
# `brew install dreamd` and `brew services start dreamd`).
#
# At each release:
#   1. `url`: the sdist on PyPI for the new version (tests/test_packaging.py checks that the
#      version here is dreamd/__init__.py's), and below it `sha256 "<shasum -a 256 of it>"`;
#      until a release is published there is no sdist to sum, and brew installs with a warning.
#   2. `brew update-python-resources dreamd` writes one `resource` block per runtime
#      dependency (aiohttp, msgspec, platformdirs, ...) above `def install`; the test then
#      checks that they name exactly the dependencies of the installed package.
class Dreamd < Formula
  include Language::Python::Virtualenv

  desc "Background memory consolidation (dreaming) for AI-agent Markdown workspaces"
  homepage "https://example.invalid/dreamd"
  url "https://files.pythonhosted.org/packages/source/d/dreamd/dreamd-0.1.0.tar.gz"
  license "MIT"

  depends_on "python@3.13"

  def install
    virtualenv_install_with_resources
  end

  # `brew services start dreamd`: a LaunchAgent on macOS, a systemd user unit on Linux.
  # dreamd stops cleanly on SIGTERM; a crash is restarted, a clean exit is not.
  service do
    run [opt_bin/"dreamd", "run"]
    keep_alive crashed: true
    log_path var/"log/dreamd.log"
    error_log_path var/"log/dreamd.log"
    working_dir var
  end

  test do
    assert_equal "dreamd #{version}", shell_output("#{bin}/dreamd --version").strip
    output = shell_output("#{bin}/dreamd demo --dir #{testpath}/demo")
    assert_match "Promoted into MEMORY.md", output
  end
end
