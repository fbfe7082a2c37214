using System.Globalization;

namespace Exchange.Hiccups;

/// <summary>What to measure: how long, on which CPUs, and the fixed-rate stream and latency to bound.</summary>
internal sealed record HiccupOptions
{
    public const string Usage = """
        Exchange.Hiccups - how long this machine takes each CPU away from a spinning thread.

        Usage: Exchange.Hiccups [--seconds S] [--cpus 0,1] [--rate R] [--latency-us L] [--threshold-us T]

          --seconds S       how long to spin (default 4: a 200,000-order run at 50,000/s)
          --cpus LIST       CPUs to spin on at once, one pinned thread each: the CPUs the venue and client
                            run on (default: every CPU)
          --rate R          fixed order rate to bound (default 50000)
          --latency-us L    latency to bound (default 60)
          --threshold-us T  shortest gap recorded (default 10)
        """;

    public double Seconds { get; init; } = 4;

    public IReadOnlyList<int> Cpus { get; init; } = Enumerable.Range(0, Environment.ProcessorCount).ToArray();

    public long Rate { get; init; } = 50_000;

    public double LatencyMicroseconds { get; init; } = 60;

    public double ThresholdMicroseconds { get; init; } = 10;

    /// <summary>Options from "--name value" pairs; an error names the bad argument.</summary>
    public static HiccupOptions? Parse(IReadOnlyList<string> args, out string? error)
    {
        ArgumentNullException.ThrowIfNull(args);
        var options = new HiccupOptions();
        error = null;
        for (int i = 0; i < args.Count; i += 2)
        {
            string name = args[i];
            if (i + 1 >= args.Count)
            {
                error = $"{name} needs a value";
                return null;
            }

            string value = args[i + 1];
            CultureInfo c = CultureInfo.InvariantCulture;
            bool ok = name switch
            {
                "--seconds" => double.TryParse(value, c, out double s) && s > 0 && s <= 600 && Set(ref options, options with { Seconds = s }),
                "--rate" => long.TryParse(value, c, out long r) && r > 0 && Set(ref options, options with { Rate = r }),
                "--latency-us" => double.TryParse(value, c, out double l) && l > 0 && Set(ref options, options with { LatencyMicroseconds = l }),
                "--threshold-us" => double.TryParse(value, c, out double t) && t > 0 && Set(ref options, options with { ThresholdMicroseconds = t }),
                "--cpus" => TryCpus(value, out int[] cpus) && Set(ref options, options with { Cpus = cpus }),
                _ => false,
            };
            if (!ok)
            {
                error = $"bad argument {name} {value}";
                return null;
            }
        }

        return options;
    }

    private static bool Set(ref HiccupOptions target, HiccupOptions value)
    {
        target = value;
        return true;
    }

    private static bool TryCpus(string value, out int[] cpus)
    {
        string[] parts = value.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        cpus = new int[parts.Length];
        for (int i = 0; i < parts.Length; i++)
        {
            if (!int.TryParse(parts[i], NumberStyles.None, CultureInfo.InvariantCulture, out cpus[i]))
            {
                return false;
            }
        }

        return cpus.Length > 0 && cpus.Distinct().Count() == cpus.Length;
    }
}
