Console.WriteLine("host: not built yet");
