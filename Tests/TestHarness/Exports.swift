/// The suites import `TestHarness` and get the lab with it.
@_exported import IMELab
