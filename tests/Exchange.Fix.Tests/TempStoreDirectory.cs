namespace Exchange.Fix.Tests;

/// <summary>A scratch folder for one test's session store files, deleted on dispose.</summary>
internal sealed class TempStoreDirectory : IDisposable
{
    public string Path { get; } = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "fixsession-tests", Guid.NewGuid().ToString("N"));

    /// <summary>The store file the tests open in the folder.</summary>
    public string StorePath => System.IO.Path.Combine(Path, "VENUE-CLIENT1.store");

    public void Dispose()
    {
        if (Directory.Exists(Path))
        {
            Directory.Delete(Path, recursive: true);
        }
    }
}
