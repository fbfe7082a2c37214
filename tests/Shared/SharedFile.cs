namespace Exchange.Tests.Shared;

/// <summary>Reads files that a test's writer still holds open (and mapped), as a crash would leave them.</summary>
internal static class SharedFile
{
    /// <summary>The file's bytes now, opened with FileShare.ReadWrite so the writer's open handle is no obstacle.</summary>
    public static byte[] ReadAll(string path)
    {
        using var file = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite);
        var bytes = new byte[file.Length];
        file.ReadExactly(bytes);
        return bytes;
    }
}
