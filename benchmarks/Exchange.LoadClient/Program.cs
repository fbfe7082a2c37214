Console.WriteLine("load client: not built yet");
